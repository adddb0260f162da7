// The two listeners: the data plane and the admin plane.
import { Type } from '@sinclair/typebox';

const HOST_PORT = '^(?:\\[[0-9A-Fa-f:.]+\\]|[^:\\s\\[\\]]+):[0-9]{1,5}$';

export const Listen = Type.String({
  pattern: HOST_PORT,
  'x-expected': '"host:port" (IPv6 as "[::1]:port")',
  default: '127.0.0.1:8080',
  description: 'Data-plane listener, "host:port". Use 0.0.0.0 to accept connections from other machines.',
});

export const AdminListen = Type.String({
  pattern: HOST_PORT,
  'x-expected': '"host:port" (IPv6 as "[::1]:port")',
  default: '127.0.0.1:8081',
  description: 'Admin-plane listener, "host:port"; loopback by default.',
});
