// Run first by `npm start` and `npm test` (package.json `prestart`, `pretest`). Plain CommonJS with no
// syntax newer than Node 12, so that whatever Node the machine has reads it: before `npm install` npm
// runs scripts on the machine's own Node, and the gateway's TypeScript entry points fail there with an
// error (ERR_UNKNOWN_FILE_EXTENSION … build.ts) that names neither Node 22 nor `npm install`.
"use strict"
var fs = require("fs")
var path = require("path")

var REQUIRED_MAJOR = 22

/**
 * The one line to print when this Node cannot run the gateway, or undefined when it can.
 * `version` is a Node version without the leading "v"; `installed` says whether `npm install` has put
 * the pinned Node 22 (the `node` devDependency) in node_modules/.bin, which npm scripts then run on.
 */
function engineProblem(version, installed) {
  var major = Number(String(version).split(".")[0])
  if (major === REQUIRED_MAJOR && installed) return undefined
  if (major === REQUIRED_MAJOR) return "The gateway's dependencies are not installed: run `npm install` first (then `npm start` or `npm test`)."
  return "The gateway needs Node 22 and this is Node " + version + ": run `npm install` first (it installs Node 22 into node_modules/.bin, which npm scripts run on), then `npm start` or `npm test` again."
}

module.exports = { engineProblem: engineProblem, REQUIRED_MAJOR: REQUIRED_MAJOR }

if (require.main === module) {
  var root = path.join(__dirname, "..")
  // GATEWAY_ENGINE_CHECK_VERSION stands in for this Node's version, so a test can play an old Node.
  var version = process.env.GATEWAY_ENGINE_CHECK_VERSION || process.versions.node
  var problem = engineProblem(version, fs.existsSync(path.join(root, "node_modules", ".bin", "node")))
  if (problem !== undefined) {
    process.stderr.write(problem + "\n")
    process.exit(1)
  }
  // `npm start` asks for the bundle check too, in this same process: a second Node start would cost ~40 ms of
  // every start. Only now, on Node 22, is the TypeScript module loaded.
  if (process.argv.indexOf("--fresh-bundle") !== -1) {
    // Failed until the check settles: a build that never finished must not let the old bundle start.
    process.exitCode = 1
    import("./fresh-bundle.ts").then(function (m) { return m.ensureFreshBundle() }).then(function () { process.exitCode = 0 }).catch(function (error) {
      process.stderr.write(String(error && error.stack || error) + "\n")
      process.exit(1)
    })
  }
}
