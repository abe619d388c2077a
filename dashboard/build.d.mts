// Types of build.mjs for the TypeScript that imports it (the e2e harness, the tests' runner).
export function buildDashboard(opts?: { force?: boolean }): Promise<{ skipped: boolean; outputs?: BuildOutput[] }>
export interface BuildOutput {
  file: string
  bytes: number
  entry: boolean
  source: string | null
  imports: string[]
  dynamic: string[]
}
