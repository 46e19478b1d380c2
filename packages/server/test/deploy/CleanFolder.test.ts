import { type ChildProcess, execFile, spawn } from "node:child_process"
import { cp, mkdir, mkdtemp, readFile, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { delimiter, dirname, isAbsolute, join, relative } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"

/**
 * The container recipe without a container runtime (issue 27): this reads the repository's `Dockerfile`
 * itself and executes its stages in clean temporary folders, so the recipe and this test cannot drift
 * apart. Each stage gets its own folder standing for `/app`; `COPY . .` copies what `docker build .` would
 * send: the working tree's files git does not ignore (`git ls-files --cached --others --exclude-standard`,
 * which leaves out node_modules, dist and data as `.dockerignore` does), `COPY --from=<stage> /app/x y` copies
 * from that stage's folder, `ENV` sets variables for the later steps, `RUN` runs its line with `sh -c`,
 * and the last stage's `CMD` starts the gateway with the Node 22 binary the build installed (the
 * repository's pinned `node` devDependency), by absolute path. Instructions with no effect outside a
 * container (`USER`, `EXPOSE`, `HEALTHCHECK`) are read and left; any other one fails the test, so the
 * Dockerfile stays within what is proven here.
 */

const run = promisify(execFile)
const repo = join(import.meta.dirname, "../../../..")
const APP = "/app"

interface Instruction {
  readonly keyword: string
  readonly args: string
}

/** The Dockerfile's instructions by stage, comments dropped and `\` continuations joined. */
const parseDockerfile = (text: string) => {
  const stages: Array<{ name: string; instructions: Array<Instruction> }> = []
  const logical = text.replace(/\\\r?\n/g, " ").split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"))
  for (const line of logical) {
    const [, keyword = "", args = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? []
    const upper = keyword.toUpperCase()
    if (upper === "FROM") {
      const [, image, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? []
      expect(image, "the base image is node:22 slim, pinned by tag").toMatch(/^node:22\.\d+\.\d+-slim$/)
      stages.push({ name: name ?? String(stages.length), instructions: [] })
    } else {
      const stage = stages.at(-1)
      if (stage === undefined) throw new Error(`an instruction before FROM: ${line}`)
      stage.instructions.push({ keyword: upper, args })
    }
  }
  return stages
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

const waitFor = async (url: string, deadline: number, exited: () => string | undefined) => {
  while (Date.now() < deadline) {
    const gone = exited()
    if (gone !== undefined) throw new Error(`the gateway exited before answering: ${gone}`)
    const status = await fetch(url).then((r) => r.status, () => undefined)
    if (status === 200) return status
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${url} did not answer 200 in time`)
}

const scratch: Array<string> = []
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true })
})

describe("the Dockerfile's steps in a clean folder", () => {
  // Two `npm ci` runs from the registry (the full install with its builds, then the production one):
  // minutes on a cold cache, hence ten minutes rather than the suite's one.
  it("build, install production dependencies only, start on Node 22: /health/ready and /health/live answer 200", { timeout: 600_000 }, async () => {
    const stages = parseDockerfile(await readFile(join(repo, "Dockerfile"), "utf8"))
    expect(stages.map((stage) => stage.name)).toEqual(["build", "runtime"])

    const root = await mkdtemp(join(tmpdir(), "gateway-clean-folder-"))
    scratch.push(root)
    const tracked = (await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repo, maxBuffer: 64 * 1024 * 1024 })).stdout.split("\0").filter((file) => file !== "")
    const folders = new Map<string, string>()
    // npm's own scripts and `RUN` lines find Node 22 first (vitest runs on the repository's pinned node).
    const path = [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter)
    let started: { child: ChildProcess; env: Record<string, string>; cwd: string } | undefined

    for (const stage of stages) {
      const cwd = join(root, stage.name)
      await mkdir(cwd, { recursive: true })
      folders.set(stage.name, cwd)
      const env: Record<string, string> = {}
      for (const { args, keyword } of stage.instructions) {
        switch (keyword) {
          case "WORKDIR":
            expect(args, "the work folder each stage's folder stands for").toBe(APP)
            break
          case "ENV": {
            const [, name = "", value = ""] = /^(\S+?)[=\s](.*)$/.exec(args) ?? []
            env[name] = value
            break
          }
          case "COPY": {
            if (args === ". .") {
              // The working tree's copy of each tracked file; one deleted and not yet committed is left out.
              for (const file of tracked) await cp(join(repo, file), join(cwd, file), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
                if (error.code !== "ENOENT") throw error
              })
              break
            }
            const [, from = "", src = "", dest = ""] = /^--from=(\S+)(?:\s+--chown=\S+)?\s+(\S+)\s+(\S+)$/.exec(args) ?? []
            const source = folders.get(from)
            if (source === undefined || !isAbsolute(src)) throw new Error(`a COPY this test cannot run: ${args}`)
            await cp(join(source, relative(APP, src)), join(cwd, dest), { recursive: true })
            break
          }
          case "RUN": {
            // DATA_DIR and the like point into the image: every path under /app is this stage's folder.
            const runEnv = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value.replace(APP, cwd)]))
            await run("sh", ["-c", args], { cwd, env: { ...process.env, ...runEnv, PATH: path }, maxBuffer: 256 * 1024 * 1024 })
            break
          }
          case "CMD": {
            const [command, ...rest] = JSON.parse(args) as Array<string>
            expect(command, "the image starts the bundle with node, no npm").toBe("node")
            // The pinned Node 22 the build stage installed, by absolute path.
            const node = join(folders.get("build") ?? "", "node_modules/node/bin/node")
            const version = (await run(node, ["--version"])).stdout.trim()
            expect(version).toMatch(/^v22\./)
            const port = await freePort()
            const dataDir = await mkdtemp(join(tmpdir(), "gateway-clean-folder-data-"))
            scratch.push(dataDir)
            const childEnv: Record<string, string> = {
              ...Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
              ...env,
              HOST: "127.0.0.1",
              PORT: String(port),
              DATA_DIR: dataDir,
              NODE_COMPILE_CACHE: join(dataDir, ".compile-cache")
            }
            // A live network's settings from the engineer's shell would change what starts: local mode here.
            for (const name of ["DATABASE_URL", "SUI_GRPC_URL", "PUBLIC_URL"]) delete childEnv[name]
            const child = spawn(node, rest, { cwd, env: childEnv, stdio: ["ignore", "pipe", "pipe"] })
            started = { child, env: childEnv, cwd }
            let output = ""
            child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
            child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
            const exited = () => (child.exitCode !== null || child.signalCode !== null ? `${child.exitCode ?? child.signalCode}\n${output.slice(-4000)}` : undefined)
            try {
              const base = `http://127.0.0.1:${port}`
              await waitFor(`${base}/health/ready`, Date.now() + 120_000, exited)
              expect((await fetch(`${base}/health/ready`)).status).toBe(200)
              expect((await fetch(`${base}/health/live`)).status).toBe(200)
            } finally {
              // SIGTERM, as `docker stop` sends it to the CMD's process: the gateway stops and says so. Its exit
              // status on SIGTERM (and the drain) is the shutdown work's own test, not this recipe's.
              const closed = new Promise<void>((resolve) => (exited() === undefined ? child.once("exit", () => resolve()) : resolve()))
              if (exited() === undefined) child.kill("SIGTERM")
              await closed
              expect(output, output.slice(-4000)).toContain("gateway stopped")
            }
            break
          }
          case "USER":
          case "EXPOSE":
          case "HEALTHCHECK":
            break
          default:
            throw new Error(`a Dockerfile instruction this test cannot run: ${keyword} ${args}`)
        }
      }
    }
    expect(started, "the runtime stage ends with a CMD").toBeDefined()
    // Production dependencies only: no dev dependency made it into the runtime's folder.
    const runtime = folders.get("runtime") ?? ""
    await expect(readFile(join(runtime, "node_modules/esbuild/package.json"))).rejects.toThrow()
    await expect(readFile(join(runtime, "node_modules/vitest/package.json"))).rejects.toThrow()
  })
})
