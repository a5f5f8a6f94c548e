/** Public surface of kube-sim's API server (see docs/kube-sim.md). */
export { KubeSimApiServer, type ApiServerOptions, type SimServerVersion } from './api-server.ts';
export {
  ApiError,
  alreadyExists,
  badRequest,
  conflict,
  expired,
  forbidden,
  internalError,
  invalid,
  notFound,
  tooManyRequests,
  type StatusCause,
  type StatusObject,
} from './api-error.ts';
export type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from './admission.ts';
export type { SubresourceContext, SubresourceHandler } from './subresource.ts';
export type { ObjectValidator, ValidationContext, Defaulter } from './object-hooks.ts';
export type { StoreEvent, StoreListener, ChangeType } from './store-event.ts';
export type { FaultRule } from './fault-injection.ts';
export type { ApiRequest, ApiResponse, UserInfo, Verb } from './request.ts';
export { SYSTEM_USER } from './request.ts';
export type { KubeObject, ObjectMeta, OwnerReference } from './types.ts';
export { ObjectStore, toRfc3339 } from './object-store.ts';
export { resourceKey } from './resource-type.ts';
export { podQosClass, type QosClass } from './pod-qos.ts';
export { compileLabelSelector, matchesLabels, parseLabelSelector, type LabelSelectorObject } from './label-selector.ts';
export type { RequestCount } from './request-metrics.ts';
