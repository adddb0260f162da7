// Maps identity-provider groups to a data-plane team or an admin scope.
import { Type } from '@sinclair/typebox';

const RoleBinding = Type.Object(
  {
    group: Type.Optional(Type.String({ minLength: 1, description: 'Governance group (team) whose budget and pools the principal gets.' })),
    admin_scope: Type.Optional(Type.Union([Type.Literal('read-only'), Type.Literal('full')], { description: 'Admin authority granted.' })),
  },
  { additionalProperties: false, description: 'What membership of an identity-provider group grants.' },
);

export const RoleBindingsSection = Type.Record(
  Type.String({ minLength: 1 }),
  Type.Record(Type.String({ minLength: 1 }), RoleBinding, { description: 'Bindings by identity-provider group.' }),
  { default: {}, description: 'Role bindings by identity-provider name, then group.' },
);
