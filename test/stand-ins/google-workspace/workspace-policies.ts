/**
 * The stand-in's security policies (Cloud Identity Policy API `Policy` resources) of the
 * fixture customer. The top-level org unit holds a strong administrator's policy for each
 * setting the connector reads: 2-step verification enforced since 2024, passwords of at least
 * 12 characters, web sessions of 12 hours, less secure apps off. Options add what tests need:
 *
 * - `relaxedOrgUnit`: an org unit /Contractors whose policies override the top level with weaker
 *   ones (2-step verification only announced for 2099, 8 characters, 24-hour sessions, less
 *   secure apps allowed), the case the weakest-policy rule is for;
 * - `extraOrgUnits`: that many more org units, each with its own login-challenge policy, which
 *   the mapping does not read, to make the listing run over several pages;
 * - one Drive policy, outside `settings/security.*`, which the connector's filter must leave out.
 */
import type { cloudidentity_v1 } from '@googleapis/cloudidentity';
import { fixtureCustomerId } from './workspace-fixtures.ts';

export type Policy = cloudidentity_v1.Schema$Policy;

export interface PolicyFixtureOptions {
  relaxedOrgUnit?: boolean;
  extraOrgUnits?: number;
}

const rootOrgUnit = 'orgUnits/03ph8a2z0root';
const contractorsOrgUnit = 'orgUnits/03ph8a2z1ctrs';

function policy(index: number, orgUnit: string, type: string, value: Record<string, unknown>): Policy {
  return {
    name: `policies/${(0xa000 + index).toString(16)}`,
    customer: `customers/${fixtureCustomerId}`,
    policyQuery: {
      orgUnit,
      query: `entity.org_units.exists(org_unit, org_unit.org_unit_id == orgUnitId('${orgUnit.slice('orgUnits/'.length)}'))`,
      sortOrder: index,
    },
    setting: { type, value },
    type: 'ADMIN',
  };
}

const topLevel: [string, Record<string, unknown>][] = [
  ['settings/security.two_step_verification_enrollment', { allowEnrollment: true }],
  ['settings/security.two_step_verification_enforcement', { enforcedFrom: '2024-02-01T00:00:00Z' }],
  [
    'settings/security.password',
    {
      allowedStrength: 'STRONG',
      minimumLength: 12,
      maximumLength: 100,
      enforceRequirementsAtLogin: true,
      allowReuse: false,
      expirationDuration: '0s',
    },
  ],
  ['settings/security.session_controls', { webSessionDuration: '43200s' }],
  ['settings/security.less_secure_apps', { allowLessSecureApps: false }],
  ['settings/drive_and_docs.external_sharing', { externalSharingMode: 'ALLOWLISTED_DOMAINS' }],
];

const relaxed: [string, Record<string, unknown>][] = [
  ['settings/security.two_step_verification_enforcement', { enforcedFrom: '2099-01-01T00:00:00Z' }],
  ['settings/security.password', { allowedStrength: 'WEAK', minimumLength: 8, maximumLength: 100 }],
  ['settings/security.session_controls', { webSessionDuration: '86400s' }],
  ['settings/security.less_secure_apps', { allowLessSecureApps: true }],
];

export function workspacePolicies(options: PolicyFixtureOptions = {}): Policy[] {
  const entries: [string, string, Record<string, unknown>][] = [
    ...topLevel.map(([type, value]): [string, string, Record<string, unknown>] => [rootOrgUnit, type, value]),
    ...(options.relaxedOrgUnit
      ? relaxed.map(([type, value]): [string, string, Record<string, unknown>] => [contractorsOrgUnit, type, value])
      : []),
    ...Array.from({ length: options.extraOrgUnits ?? 0 }, (_, index): [string, string, Record<string, unknown>] => [
      `orgUnits/03ph8a2z${String(index).padStart(4, '0')}`,
      'settings/security.login_challenges',
      { enableEmployeeIdChallenge: index % 2 === 0 },
    ]),
  ];
  return entries.map(([orgUnit, type, value], index) => policy(index, orgUnit, type, value));
}
