// The types of engine-check.cjs, which stays plain JavaScript so that any Node can run it.
/** The one line to print when this Node cannot run the gateway, or undefined when it can. */
export declare function engineProblem(version: string, installed: boolean): string | undefined
export declare const REQUIRED_MAJOR: number
