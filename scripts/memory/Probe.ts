/**
 * Preloaded into the gateway by `npm run memory` (`--import`): answers each
 * IPC message with `process.memoryUsage()`, which only the process itself can read.
 */
process.on("message", () => {
  process.send?.(process.memoryUsage())
})
