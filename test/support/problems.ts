/** The exact problem body the API answers for a code, for assertions. */
import { problemCatalog, problemTypeBase, type ProblemCode } from '@evident/contract/problems';

export function expectedProblem(
  code: ProblemCode,
  detail: string,
  instance: string,
  requestId: string,
  extra: Record<string, unknown> = {},
) {
  return {
    type: problemTypeBase + code,
    title: problemCatalog[code].title,
    status: problemCatalog[code].status,
    detail,
    instance,
    code,
    requestId,
    ...extra,
  };
}
