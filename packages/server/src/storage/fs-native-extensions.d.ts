/** The part of `fs-native-extensions` (Holepunch; ships no types) the gateway uses: open file description locks. */
declare module "fs-native-extensions" {
  /**
   * Takes a lock on `fd`'s open file description without waiting (Linux:
   * `fcntl(F_OFD_SETLK)`; whole file when offset and length are 0): true when
   * taken, false when another description holds a conflicting one. Exclusive
   * unless `shared`; the kernel drops it when the description is closed.
   */
  export function tryLock(fd: number, offset?: number, length?: number, options?: { readonly shared?: boolean }): boolean
}
