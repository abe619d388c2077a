// Test support (not a test file itself): the adapters read only the outbound policy and the clock from
// the kernel, so their tests run without a database or an app.
import { systemClock, type Clock } from '../../../kernel/clock.js'
import type { Kernel } from '../../../kernel/kernel.js'

export const crmKernelStub = (allowPrivateNetworks = true, clock: Clock = systemClock) => ({ config: { outbound: { allowPrivateNetworks } }, clock }) as unknown as Kernel
