/// <reference lib="dom" />
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { fromBase64 } from "@mysten/sui/utils"
import { registerWallet } from "@mysten/wallet-standard"
import { keypairWallet } from "../../src/KeypairWallet.ts"

/**
 * A wallet-standard wallet for browser tests, injected before the page loads:
 * the console's own keypair wallet with a fixed Ed25519 key (from the seed
 * the test sets on `window`), registered in any mode, signing without
 * prompts, executing through the gateway's own `/sui`. It records every
 * request so the test can tell what the page asked it to sign.
 */
interface TestWalletWindow {
  testWalletSeed?: string
  testWalletLog?: Array<string>
}

const scope = window as Window & TestWalletWindow
const keypair = Ed25519Keypair.fromSecretKey(fromBase64(scope.testWalletSeed ?? ""))
const log: Array<string> = []
scope.testWalletLog = log

/** `call`, recording `request` in the log first. */
const logged = <A extends ReadonlyArray<unknown>, R>(request: string, call: (...args: A) => R) => (...args: A) => {
  log.push(request)
  return call(...args)
}

const wallet = keypairWallet({
  keypair,
  client: new SuiGrpcClient({ network: "localnet", baseUrl: `${window.location.origin}/sui` }),
  network: "localnet",
  name: "Console Test Wallet",
  icon: "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxIDEiLz4="
})
const { "standard:connect": connect, "sui:signPersonalMessage": personal, "sui:signTransaction": sign, "sui:signAndExecuteTransaction": execute } = wallet.features

registerWallet({
  ...wallet,
  features: {
    ...wallet.features,
    "standard:connect": { ...connect, connect: logged("connect", connect.connect) },
    "sui:signPersonalMessage": { ...personal, signPersonalMessage: logged("signPersonalMessage", personal.signPersonalMessage) },
    "sui:signTransaction": { ...sign, signTransaction: logged("signTransaction", sign.signTransaction) },
    "sui:signAndExecuteTransaction": { ...execute, signAndExecuteTransaction: logged("signAndExecuteTransaction", execute.signAndExecuteTransaction) }
  }
})
