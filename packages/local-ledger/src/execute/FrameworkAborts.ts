import { normalizeSuiAddress, toHex } from "@mysten/sui/utils"
import type { ExecutionFailure } from "../Execution.ts"
import { Failed } from "./ProgrammableTransaction.ts"

type MoveAbort = Extract<ExecutionFailure, { MoveAbort: unknown }>["MoveAbort"]
type MoveLocation = MoveAbort[0]

/**
 * A Move 2024 clever error as a full node renders it from the aborting
 * module's bytecode (gRPC `MoveAbort.clever_error`): the `#[error(code = N)]`
 * code, the source line, the constant's name and its value as text. A node
 * sets no `constant_type`.
 */
export interface CleverError {
  readonly errorCode: number | undefined
  readonly lineNumber: number
  readonly constantName: string
  readonly rendered: string
}

/**
 * A clever abort code as the Move compiler packs it (move-command-line-common
 * `error_bitset.rs`, version 1): version nibble 0b1100, 4 reserved bits, the
 * error code (0xff when none), the line number, then the indexes in the
 * module's constant pool of the constant's name and of its value.
 */
export const cleverAbortCode = (input: {
  readonly errorCode: number | undefined
  readonly lineNumber: number
  readonly nameIndex: number
  readonly valueIndex: number
}): bigint =>
  (0b1100n << 60n) | (BigInt(input.errorCode ?? 0xff) << 48n) | (BigInt(input.lineNumber) << 32n) | (BigInt(input.nameIndex) << 16n) |
  BigInt(input.valueIndex)

/** A framework abort the ledger reproduces: where it aborts, its code, and what a node renders for it. */
interface FrameworkAbort {
  readonly location: MoveLocation
  readonly code: bigint
  readonly clever: CleverError
}

const FRAMEWORK = normalizeSuiAddress("0x2")

/**
 * `sui::derived_object::claim` on an id already claimed:
 * `assert!(!df::exists(parent, Claimed(id)), EObjectAlreadyExists)` at
 * derived_object.move:41, with `#[error(code = 0)] const EObjectAlreadyExists:
 * vector<u8> = b"Derived object is already claimed."`. Sui's own transactional
 * test (sui-adapter-transactional-tests/tests/derived_objects/claim_twice.snap)
 * aborts with 13835058231375822849 = 0xC000_0029_0000_0001 in `claim`
 * (function 0) at instruction 20.
 */
const DERIVED_OBJECT_ALREADY_EXISTS: FrameworkAbort = {
  location: { module: { address: FRAMEWORK, name: "derived_object" }, function: 0, instruction: 20, functionName: "claim" },
  code: cleverAbortCode({ errorCode: 0, lineNumber: 41, nameIndex: 0, valueIndex: 1 }),
  clever: { errorCode: 0, lineNumber: 41, constantName: "EObjectAlreadyExists", rendered: "Derived object is already claimed." }
}

const FRAMEWORK_ABORTS: ReadonlyArray<FrameworkAbort> = [DERIVED_OBJECT_ALREADY_EXISTS]

const failedWith = (abort: FrameworkAbort) => new Failed({ MoveAbort: [abort.location, abort.code] })

/** `derived_object::claim` found the id already claimed: the transaction fails as it does on a full node. */
export const derivedObjectAlreadyExists = (): Failed => failedWith(DERIVED_OBJECT_ALREADY_EXISTS)

/**
 * What a full node renders for a MoveAbort, read from the module that
 * aborted: the clever error of a framework abort the ledger reproduces; none
 * for any other abort (`spend_account`'s codes are plain u64s).
 */
export const cleverErrorOf = (abort: MoveAbort): CleverError | undefined => {
  const [location, code] = abort
  const address = normalizeSuiAddress(typeof location.module.address === "string" ? location.module.address : toHex(location.module.address))
  return FRAMEWORK_ABORTS.find((known) =>
    known.location.module.address === address && known.location.module.name === location.module.name && known.code === BigInt(code)
  )?.clever
}
