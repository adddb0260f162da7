// The control of preauth-flood-sink: a bare uWS server that answers every POST as the gateway
// answers a request without a key (401 on its headers, the connection closed, nothing of the
// body taken), run as its own process on the load generator's cores. The flood clients sent
// here burn the same CPU on those cores as in preauth-flood, with no gateway work behind it.
//   node dist/bench/preauth/refusing-sink.js   (prints its port, then serves until killed)
import uWS from '../../src/shared/uws.js';

const REFUSAL = '{"error":{"message":"no credential","type":"authentication_error","param":null,"code":null}}';

const app = uWS.App();
app.any('/*', (res) => {
  res.onAborted(() => {});
  res.cork(() => {
    res.writeStatus('401 Unauthorized').writeHeader('content-type', 'application/json');
    res.end(REFUSAL, true);
  });
});
app.listen('127.0.0.1', 0, (socket) => {
  if (socket === false) throw new Error('the refusing sink could not listen');
  process.stdout.write(`${uWS.us_socket_local_port(socket as unknown as Parameters<typeof uWS.us_socket_local_port>[0])}\n`);
});
