/**
 * The control catalog as an OSCAL 1.0.6 component definition (`GET /api/controls/oscal`): what
 * Evident implements and how it checks it, for GRC tools and system security plans that take
 * component definitions in.
 *
 * One component, Evident's assessment service, with two control implementations:
 * - against NIST SP 800-53 rev5: one implemented requirement per NIST control the catalog maps to,
 *   naming the Evident controls that assess it;
 * - against Evident's own catalog (a back-matter resource, as the catalog is not an OSCAL
 *   document): one implemented requirement per control, its objective as the description, the
 *   evidence it needs and its framework ids as properties, and each check a statement saying what
 *   it evaluates on which evidence.
 * Each control's owner is a party responsible for it. Deterministic in the catalog and the
 * `lastModified` given: the endpoint gives the instant it writes the document, as the catalog
 * records no build time.
 */
import { plural } from '@evident/contract';
import type { Catalog, Check, Control } from './model.js';
import {
  catalogResource,
  catalogResourceUuid,
  exportNamespace,
  oscalString,
  oscalToken,
  oscalVersion,
  ownerParties,
  ownerRole,
  partyUuid,
  prop,
  unique,
  uuidV5,
  type Json,
} from './oscal-values.js';

export interface OscalComponentOptions {
  version: string;
  /** When the catalog was built or last changed, as `metadata.last-modified`. */
  lastModified: string;
}

/** NIST's published OSCAL catalog of SP 800-53 rev5, the source of the NIST implementation. */
export const nistCatalogHref =
  'https://raw.githubusercontent.com/usnistgov/oscal-content/main/nist.gov/SP800-53/rev5/json/NIST_SP-800-53_rev5_catalog.json';

/** Markdown as one line of plain text: OSCAL strings hold no line breaks. */
const plain = (markdown: string) => oscalString(markdown.replace(/[*_`#>]/g, '')) ?? '';

function checkText(check: Check): string {
  const scope = check.mode === 'each' ? `the newest ${check.kind} item of each subject` : `all ${check.kind} items together`;
  const where = check.where ? ` (those where \`${check.where}\`)` : '';
  return `Evaluates \`${check.expression}\` on ${scope}${where}. Passes as: ${check.pass} Fails as: ${check.fail}`;
}

type Uuid = (name: string) => string;

export function toOscalComponentDefinition(catalog: Catalog, options: OscalComponentOptions): Json {
  const version = oscalString(options.version);
  if (version === undefined) throw new TypeError('The OSCAL document version must not be blank.');
  const scope = `catalog/${catalog.version}`;
  const uuid: Uuid = (name) => uuidV5(exportNamespace, `${scope}/${name}`);
  const catalogUuid = catalogResourceUuid(catalog.version);
  const controls = [...catalog.controls].sort((a, b) => (a.id < b.id ? -1 : 1));
  const owners = unique(controls.map((control) => control.owner));

  return {
    'component-definition': {
      uuid: uuid('component-definition'),
      metadata: {
        title: `Evident control catalog ${catalog.version}`,
        'last-modified': options.lastModified,
        version,
        'oscal-version': oscalVersion,
        props: prop('evident-catalog-version', catalog.version),
        ...ownerParties(owners),
      },
      components: [
        {
          uuid: uuid('component'),
          type: 'service',
          title: 'Evident continuous control assessment',
          description:
            `Evaluates ${plural(controls.length, 'control')} every day against collected evidence (checks in CEL, ` +
            'freshness windows, attestations) and publishes a dated report of each control\u2019s status.',
          'control-implementations': [
            nistImplementation(catalog, controls, uuid),
            evidentImplementation(controls, `#${catalogUuid}`, uuid),
          ],
        },
      ],
      'back-matter': {
        resources: [catalogResource(catalog.version, 'The controls, evidence requirements and checks, as the API serves them.')],
      },
    },
  };
}

/** One implemented requirement per NIST control the catalog maps to, in NIST's order. */
function nistImplementation(catalog: Catalog, controls: Control[], uuid: Uuid): Json {
  const nistOrder =
    catalog.frameworks.find((framework) => framework.id === 'nist80053')?.requirements.map((entry) => entry.id) ?? [];
  const byNist = new Map<string, Control[]>();
  for (const control of controls) {
    for (const id of control.frameworks.nist80053) byNist.set(id, [...(byNist.get(id) ?? []), control]);
  }
  const nistIds = [...byNist.keys()].sort((a, b) => nistOrder.indexOf(a) - nistOrder.indexOf(b));
  return {
    uuid: uuid('implementation/nist80053'),
    source: nistCatalogHref,
    description: 'The NIST SP 800-53 rev5 controls Evident\u2019s controls assess, each with the controls that do.',
    'implemented-requirements': nistIds.map((id) => {
      const assessing = byNist.get(id)!;
      return {
        uuid: uuid(`implementation/nist80053/${id}`),
        'control-id': oscalToken(id),
        description: `Assessed continuously by ${assessing.map((control) => `${control.id} (${control.title})`).join(', ')}.`,
        props: assessing.flatMap((control) => prop('evident-control', control.id)),
        'responsible-roles': [
          { 'role-id': ownerRole, 'party-uuids': unique(assessing.map((control) => partyUuid(control.owner))) },
        ],
      };
    }),
  };
}

/** One implemented requirement per Evident control: its objective, evidence, framework ids and checks. */
function evidentImplementation(controls: Control[], source: string, uuid: Uuid): Json {
  return {
    uuid: uuid('implementation/evident'),
    source,
    description: 'Evident\u2019s own controls, each with the evidence it needs and the checks it runs.',
    'implemented-requirements': controls.map((control) => ({
      uuid: uuid(`implementation/evident/${control.id}`),
      'control-id': oscalToken(control.id),
      description: plain(control.objectiveMarkdown) || control.title,
      props: [
        ...prop('evident-control', control.id),
        ...prop('evident-severity', control.severity),
        ...prop('evident-family', control.family),
        ...control.evidence.flatMap((requirement) =>
          prop('evident-evidence', `${requirement.kind} within ${plural(requirement.freshnessDays, 'day')}`),
        ),
        ...control.frameworks.soc2.flatMap((id) => prop('soc2-criterion', id)),
        ...control.frameworks.iso27001.flatMap((id) => prop('iso27001-control', id)),
        ...control.frameworks.nist80053.flatMap((id) => prop('nist-800-53-control', oscalToken(id))),
      ],
      'responsible-roles': [{ 'role-id': ownerRole, 'party-uuids': [partyUuid(control.owner)] }],
      ...(control.checks.length > 0
        ? {
            statements: control.checks.map((check) => ({
              'statement-id': oscalToken(`${control.id}_chk_${check.id}`),
              uuid: uuid(`implementation/evident/${control.id}/check/${check.id}`),
              description: oscalString(checkText(check)) ?? check.id,
            })),
          }
        : { remarks: 'Rests on attestations: people submit them as evidence; no check evaluates it.' }),
    })),
  };
}
