// boot-progress.js — the first visit (issue 11.5): while the worker downloads and starts the ~13 MB
// runtime, the menu shows a bar with the megabytes loaded of the total and what happens next; a share
// link says at once which game is being prepared ("Blitz auf Bornholm: du spielst Nordbund gegen den
// Computer (Normal) …"). The total and the scenario names come from vendor/build-info.json (written by
// tools/build_site.py), the bytes from the worker (pwa/worker.js, "boot-progress").

import { parseShareLink, describeLinkPreparing } from "./share.js";

const $ = (id) => document.getElementById(id);
const mb = (bytes) => (bytes / 1e6).toLocaleString("de-DE", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export class BootProgress {
  constructor() {
    this.total = 0;
    this.loaded = 0;
    this.finished = false;
    this.info = fetch(new URL("../vendor/build-info.json", import.meta.url))
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null);
    this.info.then((info) => {
      if (!info) return;
      this.total = Number(info.fetch_bytes) || 0;
      this.render();
      this.previewLink(info.scenarios || []);
    });
  }

  /** A share link in the address: say what it starts, before the engine can check it. */
  previewLink(scenarios) {
    if (this.finished) return;
    const parsed = parseShareLink(location.hash, scenarios);
    if (!parsed || !parsed.ok) return; // a bad link is explained after the boot, with the menu
    $("link-preview-text").textContent = describeLinkPreparing(parsed.link);
    $("link-preview").hidden = false;
    $("main-menu").classList.add("preparing-link");
  }

  update({ loaded }) {
    this.loaded = loaded;
    this.render();
  }

  render() {
    if (this.finished) return;
    const bar = $("boot-bar");
    $("boot-progress").hidden = false;
    if (!this.total) {
      bar.removeAttribute("value"); // indeterminate until the total is known
      $("boot-bytes").textContent = this.loaded ? `${mb(this.loaded)} MB geladen` : "";
      return;
    }
    const k = Math.min(1, this.loaded / this.total);
    bar.max = 100;
    bar.value = Math.round(k * 100);
    $("boot-bytes").textContent = k < 1
      ? `Spiel-Engine wird geladen: ${mb(Math.min(this.loaded, this.total))} von ${mb(this.total)} MB. Danach startet Python.`
      : "Geladen. Python startet – gleich geht es los …";
  }

  /** The engine answered (or failed): the bar goes; the link preview goes once the game is on. */
  done() {
    this.finished = true;
    $("boot-progress").hidden = true;
    $("link-preview").hidden = true;
    $("main-menu").classList.remove("preparing-link");
  }
}
