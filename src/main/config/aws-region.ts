// The AWS region a regional endpoint names, e.g. `bedrock-runtime.us-east-1.amazonaws.com`.
const REGIONAL_HOST = /\.([a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-[0-9])\.amazonaws\.com(?:\.cn)?$/;

export function regionFromHost(host: string): string | undefined {
  return REGIONAL_HOST.exec(host.toLowerCase())?.[1];
}
