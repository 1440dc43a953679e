// Loaded with `node --require` before the CLI: writes the argv of every process the CLI starts (one
// JSON line each, to CWP_TEST_SPAWN_LOG) where it is started, so a test reads every command line a
// `ps` could ever show, whatever the machine's load. Every asynchronous spawn (spawn, execFile,
// exec, fork) goes through ChildProcess.prototype.spawn; the synchronous ones are wrapped one by one.
const { appendFileSync } = require("node:fs");
const childProcess = require("node:child_process");
const { syncBuiltinESMExports } = require("node:module");

const log = process.env.CWP_TEST_SPAWN_LOG;
const record = (argv) => appendFileSync(log, `${JSON.stringify(argv)}\n`);

const spawn = childProcess.ChildProcess.prototype.spawn;
childProcess.ChildProcess.prototype.spawn = function (options) {
  record(options.args ?? [options.file]);
  return spawn.call(this, options);
};
for (const name of ["spawnSync", "execFileSync", "execSync"]) {
  const original = childProcess[name];
  childProcess[name] = function (file, args, ...rest) {
    record([file, ...(Array.isArray(args) ? args : [])]);
    return original.call(this, file, args, ...rest);
  };
}
// ESM importers of node:child_process see the wrapped functions too.
syncBuiltinESMExports();
