// The translated-stream fast paths recognise the common upstream frames by their shape and
// skip the full JSON decode; anything they do not recognise goes the full way, so the bytes
// written are the same either way. `GATEWAY_TRANSLATE_FAST_PATH=off` forces the full decoder
// everywhere, and has every request body parsed whole (rather than its few top-level members
// read, framing/top-level-members.ts): the byte-identity test runs the translation matrix, same
// protocol included, both ways and compares.
import process from 'node:process';

/** False when the environment forces every frame through the full decoder. */
export const translateFastPath: boolean = process.env.GATEWAY_TRANSLATE_FAST_PATH !== 'off';
