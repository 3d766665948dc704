// Runs Python inside the real Pyodide runtime under node, for the standard-library cut (issue 14):
// tools/cut_stdlib.py and e2e/test_pyodide_stdlib.py call it; nothing here runs in the browser.
//
//   node tools/pyodide_node.mjs '<json>'
//
// The JSON names: stdlib (a python_stdlib zip: Pyodide's whole one or the cut one, passed as
// loadPyodide's stdLibURL exactly as pwa/worker.js does), wheels (files unpacked into site-packages:
// the kaltfront wheel, and for the test suite pytest, hypothesis and their dependencies), loadPackage
// (wheels installed with pyodide.loadPackage instead), extraPath
// (zip files appended to sys.path, see tools/stdlib_audit.py), repo (mounted read-only-by-convention at
// /repo with NODEFS, so the test suite reads the repository's files as under CPython), script (a Python
// file run as __main__) and args (its sys.argv[1:]). The script's last stdout line that starts with
// "RESULT " is JSON; this runner copies stdout through and exits with the script's exit code.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { loadPyodide } = await import(resolve(ROOT, "node_modules/pyodide/pyodide.mjs"));

// Errors are printed as their message only: node's own report of an uncaught error starts with the
// 1.2 MB minified line of pyodide.asm.mjs, which buries the Python traceback (and may be cut short).
async function main() {
  const options = JSON.parse(process.argv[2] || "{}");
  const started = Date.now();
  const pyodide = await loadPyodide({
    indexURL: resolve(ROOT, "node_modules/pyodide") + "/",
    stdLibURL: resolve(options.stdlib),
    stdout: (line) => console.log(line),
    stderr: (line) => console.error(line),
  });
  const bootMs = Date.now() - started;

  for (const wheel of options.wheels || []) {
    // Into site-packages: the default (the working directory) is lost once the tests chdir.
    pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: pyodide.runPython("import site; site.getsitepackages()[0]") });
  }
  // loadPackage as pwa/worker.js's normal boot does (its Python side imports more of the stdlib than
  // unpackArchive does, e.g. importlib.metadata when it invalidates the import caches).
  for (const wheel of options.loadPackage || []) {
    const errors = [];
    await pyodide.loadPackage(resolve(wheel), { messageCallback: () => {}, errorCallback: (line) => errors.push(line) });
    if (errors.length) throw new Error(`loadPackage ${wheel}: ${errors.join(" ")}`);
  }
  if (options.repo) {
    pyodide.FS.mkdirTree("/repo");
    pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: resolve(options.repo) }, "/repo");
  }
  const extra = [];
  for (const [i, zip] of (options.extraPath || []).entries()) {
    const target = `/extra/${i}.zip`;
    pyodide.FS.mkdirTree("/extra");
    pyodide.FS.writeFile(target, new Uint8Array(readFileSync(zip)));
    extra.push(target);
  }
  pyodide.globals.set("_node_args", pyodide.toPy([...(options.args || [])]));
  pyodide.globals.set("_node_extra_path", pyodide.toPy(extra));
  pyodide.globals.set("_node_boot_ms", bootMs);
  pyodide.globals.set("_node_source", readFileSync(options.script, "utf8"));
  pyodide.globals.set("_node_script", options.script);
  let code = 0;
  try {
    code = pyodide.runPython(
      "import sys\nsys.argv = [_node_script, *_node_args]\nsys.path.extend(_node_extra_path)\n" +
        '_node_ns = {"__name__": "__main__", "__file__": _node_script}\n' +
        'exec(compile(_node_source, _node_script, "exec"), _node_ns)\n' +
        '_node_ns.get("EXIT_CODE", 0)',
    );
  } catch (err) {
    console.error(String(err && err.message ? err.message : err));
    code = 1;
  }
  return Number(code) || 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(String(err && err.message ? err.message : err));
    process.exit(1);
  },
);
