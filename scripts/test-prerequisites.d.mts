export interface Prerequisite {
  id: 'chromium' | 'xvfb' | 'postgresql';
  package: string;
  name: string;
}
export const PREREQUISITES: Prerequisite[];

export interface Found {
  missing: Prerequisite['id'][];
  chromiumPath: string | undefined;
  aptGet: boolean;
  root: boolean;
  sudo: boolean;
}

export type Plan =
  { action: 'none' } | { action: 'install'; packages: string[]; commands: string[][]; say: string } | { action: 'fail'; message: string };

export function decide(found: Found): Plan;
export function inspect(): Found;
