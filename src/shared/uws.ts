// The one import of uWebSockets.js, so the build can be swapped (on this glibc only the
// @trufflesuite unofficial build loads; newer official builds need glibc 2.38).
import uWS from '@trufflesuite/uws-js-unofficial';

export default uWS;
export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from '@trufflesuite/uws-js-unofficial';
