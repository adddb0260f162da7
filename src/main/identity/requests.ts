// Main's answer to a worker's identity-req: the JSON exchange and chain provisioning go to
// the identity service; the sign-in page (GET) and its Refresh form (a form POST) to the flow.
import type { IdentityRequest } from '../../shared/messages.js';
import type { IdentityService } from './service.js';
import type { SignInFlow } from './sign-in.js';

export function answerIdentityRequest(
  identity: IdentityService,
  signIn: SignInFlow,
  request: IdentityRequest,
): Promise<{ status: number; body: string; headers?: Record<string, string> }> {
  if (request.kind === 'page') return signIn.get(request.query, request.host);
  if (request.kind === 'exchange' && request.contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) return signIn.refresh(request.body);
  return identity.answer(request);
}
