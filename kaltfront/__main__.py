"""Command line: `python -m kaltfront rules --json`, `scenarios --json`, `preview MAP --out FILE`,
`selfplay …`, `roundrobin …`, `campaign-selfplay …` (see README)."""

from __future__ import annotations

import json
import sys

from . import rules, scenarios


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print("Aufruf: python -m kaltfront rules [--json] | scenarios [--json] | "
              "preview KARTE --out DATEI | selfplay … | roundrobin … | campaign-selfplay …")
        return 0 if args else 2
    cmd, rest = args[0], args[1:]
    if cmd == "rules":
        data = rules()
        if "--json" in rest:
            print(json.dumps(data, ensure_ascii=False, indent=1))
        else:
            for uid, u in data["units"].items():
                print(f"{uid:22} {u['name']:24} {u['cost']:5}")
        return 0
    if cmd == "scenarios":
        items = scenarios()
        if "--json" in rest:
            print(json.dumps(items, ensure_ascii=False, indent=1))
        else:
            for s in items:
                kind = "Blitz" if s["blitz"] else "Standard"
                print(f"{s['id']:22} {s['name']:28} {kind:8} {s['width']}x{s['height']}")
        return 0
    if cmd == "preview":
        from .preview import main as preview_main
        return preview_main(rest) or 0
    if cmd == "campaign-selfplay":
        from .campaign.selfplay import main as campaign_selfplay_main
        return campaign_selfplay_main(rest) or 0
    if cmd == "roundrobin":
        from .roundrobin import main as roundrobin_main
        return roundrobin_main(rest) or 0
    if cmd == "selfplay":
        from .selfplay import main as selfplay_main
        return selfplay_main(rest) or 0
    print(f"Unbekannter Befehl: {cmd}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
