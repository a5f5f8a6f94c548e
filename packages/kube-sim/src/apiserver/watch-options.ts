/**
 * The real server's checks of a watch request's options, before any event is sent (recorded in
 * the fidelity corpus): `sendInitialEvents` needs `resourceVersionMatch=NotOlderThan` (422 on
 * ListOptions), `resourceVersionMatch` needs `sendInitialEvents`, and a resourceVersion that is not
 * an unsigned integer is a 500 whose message is Go's parse error.
 */
import { ApiError, invalid } from './api-error.ts';

/** Throws the error the real server answers for these watch query parameters, if any. */
export function checkWatchOptions(query: Record<string, string>): void {
  const causes = [];
  const match = query['resourceVersionMatch'];
  if (query['sendInitialEvents'] !== undefined && match !== 'NotOlderThan') {
    causes.push({
      reason: 'FieldValueForbidden',
      message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      field: 'resourceVersionMatch',
    });
  }
  if (query['sendInitialEvents'] === undefined && match !== undefined && match !== '') {
    causes.push({
      reason: 'FieldValueForbidden',
      message: 'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      field: 'resourceVersionMatch',
    });
  }
  if (causes.length > 0) throw invalid('ListOptions', 'meta.k8s.io', '', causes);
  const rv = query['resourceVersion'];
  if (rv !== undefined && rv !== '' && !/^\d+$/.test(rv)) {
    throw new ApiError(500, '', `resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
  }
}
