// A TCP port the OS reports free right now (listen on 0, read it, close): test servers, the
// browser tests' server and the benchmarks start on one. Kept apart from harness.ts so those
// can take it without loading the server.
import net from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
