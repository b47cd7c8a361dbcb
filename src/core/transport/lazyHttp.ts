// The HTTP client as activation hands it out: built, and the transport (./http.ts with undici's
// glue, zlib and the body readers) loaded, on the first request, so that a window that never sends
// one never pays for it. Each request waits for the same load; closing before any request was sent
// loads nothing.

import type { Http, HttpClient, HttpClientOptions, HttpRequest, HttpResponse } from './http';

export function lazyHttp(options: HttpClientOptions): Http {
  let client: Promise<HttpClient> | undefined;
  const loaded = () => (client ??= import('./http').then((m) => new m.HttpClient(options)));
  return {
    send: async (req: HttpRequest): Promise<HttpResponse> => (await loaded()).send(req),
    close: async () => {
      if (client) await (await client).close();
    },
  };
}
