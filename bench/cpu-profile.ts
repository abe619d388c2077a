// The V8 CPU profile shape (`node --cpu-prof`, inspector Profiler.stop) and where a frame's code lives:
// shared by bench/profile.ts and bench/bots/profile.ts.

export interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
export interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** Where a frame's code lives: garbage collection, native, a package, one of our files, or Node itself. */
export function place(f: ProfileNode['callFrame']): string {
  const { url, functionName } = f
  if (!url) {
    if (functionName === '(garbage collector)') return 'garbage collection'
    if (functionName === '(idle)') return 'idle'
    if (functionName === '(program)') return 'native: V8 and libuv (program)'
    return `native: ${functionName || 'anonymous'}`
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg) return `package: ${pkg[1]}`
  const ours = /\/src\/(kernel\/[^/]+|modules\/[^/]+|[^/]+\.ts)/.exec(url)
  if (ours) return `ours: ${ours[1]}`
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/').slice(0, 2).join('/')}`
  return url
}
