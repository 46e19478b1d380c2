import type { GrpcTypes } from "@mysten/sui/grpc"
import { EPOCH_DURATION_MS, type EndedEpoch, type LedgerEpoch } from "../LedgerEpochs.ts"
import { timestamp } from "./LedgerProto.ts"

/** `SuiSystemStateInnerV2`, the version every network runs. */
const SYSTEM_STATE_VERSION = 2n

/**
 * The system state (`0x3::sui_system::SystemState`) as far as the ledger has
 * one: its epoch, gas price and timing, out of safe mode. The SDK's
 * `getCurrentSystemState` needs these; validators, stake and the storage
 * fund the ledger does not model, so they are left out.
 */
const systemStateProto = (epoch: LedgerEpoch): GrpcTypes.SystemState => ({
  version: SYSTEM_STATE_VERSION,
  epoch: epoch.epoch,
  referenceGasPrice: epoch.referenceGasPrice,
  epochStartTimestampMs: epoch.startMs,
  safeMode: false,
  parameters: { epochDurationMs: EPOCH_DURATION_MS },
  validatorReportRecords: []
})

/** An epoch as GetEpoch answers it; a past one with its end and last checkpoint (the read mask decides how much). */
export const epochProto = (epoch: LedgerEpoch | EndedEpoch): GrpcTypes.Epoch => ({
  epoch: epoch.epoch,
  systemState: systemStateProto(epoch),
  firstCheckpoint: epoch.firstCheckpoint,
  ...("lastCheckpoint" in epoch ? { lastCheckpoint: epoch.lastCheckpoint, end: timestamp(epoch.endMs) } : {}),
  start: timestamp(epoch.startMs),
  referenceGasPrice: epoch.referenceGasPrice
})
