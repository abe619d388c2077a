import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface WidgetHost {
  /** The site's origin (another origin than the service's). */
  url: string
  close(): Promise<void>
}

/**
 * A customer's site on another origin: one page embedding the widget's `<script>` tag, as docs/channels.md
 * gives it. The channel's public key is read per request, so the site can start before the channel exists
 * (the channel's allowed origins name the site's address).
 */
export async function startWidgetHost(serviceUrl: string, publicKey: () => string): Promise<WidgetHost> {
  const site = createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme shop</title></head><body><main><h1>Acme shop</h1></main>` +
          `<script src="${serviceUrl}/widget/v1/widget.js" data-channel="${publicKey()}" async></script></body></html>`,
      )
  })
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => site.close(() => r())),
  }
}
