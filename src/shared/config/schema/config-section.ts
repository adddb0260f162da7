// The `config:` section: whether the admin API may change the config, and where changes persist.
import { Type } from '@sinclair/typebox';

const OverlaySettings = Type.Object(
  {
    file: Type.String({
      minLength: 1,
      default: 'gateway-overlay.json',
      description: "Overlay file where API-applied changes persist; relative to the config file's folder.",
    }),
  },
  { additionalProperties: false, default: {}, description: 'The overlay file.' },
);

export const ConfigSection = Type.Object(
  {
    locked: Type.Boolean({
      default: false,
      description: 'true: admin config mutations are refused (edit the file and POST /config/reload). false: the overlay must be writable.',
    }),
    overlay: OverlaySettings,
  },
  { additionalProperties: false, default: {}, description: 'Config mutability and persistence. Boot invariant: locked XOR a writable overlay.' },
);
