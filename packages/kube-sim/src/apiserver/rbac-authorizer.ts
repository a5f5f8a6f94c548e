/**
 * Authorization from the RBAC objects in the store, like the real RBAC authorizer: a request is
 * allowed when some ClusterRoleBinding (anywhere) or RoleBinding (in the request's namespace)
 * binds the user, one of its groups or its service account to a role with a matching rule.
 * Rules match verbs, apiGroups, resources (`pods`, `pods/resize`, `pods/*`, `*`), resourceNames
 * and nonResourceURLs. Members of `system:masters` are always allowed. Denials carry the real
 * message, e.g. `User "system:serviceaccount:tailor:updater" cannot patch resource "pods" in API
 * group "" in the namespace "default"`.
 */
import type { ObjectStore } from './object-store.ts';
import type { UserInfo } from './request.ts';
import type { KubeObject } from './types.ts';

/** What authorization is decided on. */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** For non-resource requests: the URL path. */
  path: string;
}

/** An allow/deny decision with the denial's reason text. */
export interface AuthorizationDecision {
  allowed: boolean;
  reason: string;
}

/** Decides whether a request may proceed. */
export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): AuthorizationDecision;
}

interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

interface Binding {
  subjects?: Subject[];
  roleRef: { kind: string; name: string; apiGroup?: string };
}

function subjectMatches(subject: Subject, user: UserInfo, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.name === user.username;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount':
      return user.username === `system:serviceaccount:${subject.namespace ?? bindingNamespace}:${subject.name}`;
    default:
      return false;
  }
}

function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combined) return true;
    if (subresource && (r === `${resource}/*` || r === `*/${subresource}`)) return true;
  }
  return false;
}

/** True when a rule allows the request. */
export function ruleAllows(rule: PolicyRule, a: AuthorizationAttributes): boolean {
  const verbs = rule.verbs ?? [];
  if (!verbs.includes('*') && !verbs.includes(a.verb)) return false;
  if (!a.isResourceRequest) {
    return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === a.path || (u.endsWith('*') && a.path.startsWith(u.slice(0, -1))));
  }
  const groups = rule.apiGroups ?? [];
  if (!groups.includes('*') && !groups.includes(a.group)) return false;
  if (!resourceMatches(rule, a.resource, a.subresource)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (a.name !== '' && names.includes(a.name));
}

/** The real denial text (without the `<resource> is forbidden: ` prefix). */
export function denialReason(a: AuthorizationAttributes): string {
  if (!a.isResourceRequest) return `User "${a.user.username}" cannot ${a.verb} path "${a.path}"`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `User "${a.user.username}" cannot ${a.verb} resource "${resource}" in API group "${a.group}" ${scope}`;
}

/** RBAC over the Role/ClusterRole/RoleBinding/ClusterRoleBinding objects in a store. */
export class RbacAuthorizer implements Authorizer {
  constructor(private readonly store: ObjectStore) {}

  authorize(a: AuthorizationAttributes): AuthorizationDecision {
    if (a.user.groups.includes('system:masters')) return { allowed: true, reason: '' };
    const check = (binding: KubeObject, namespace: string): boolean => {
      const b = binding as unknown as Binding;
      if (!(b.subjects ?? []).some((s) => subjectMatches(s, a.user, namespace))) return false;
      const role =
        b.roleRef.kind === 'ClusterRole'
          ? this.store.get('clusterroles.rbac.authorization.k8s.io', '', b.roleRef.name)
          : this.store.get('roles.rbac.authorization.k8s.io', namespace, b.roleRef.name);
      const rules = (role as { rules?: PolicyRule[] } | undefined)?.rules ?? [];
      return rules.some((rule) => ruleAllows(rule, a));
    };
    for (const binding of this.store.list('clusterrolebindings.rbac.authorization.k8s.io')) {
      if (check(binding, '')) return { allowed: true, reason: '' };
    }
    if (a.isResourceRequest && a.namespace) {
      for (const binding of this.store.list('rolebindings.rbac.authorization.k8s.io', a.namespace)) {
        if (check(binding, a.namespace)) return { allowed: true, reason: '' };
      }
    }
    return { allowed: false, reason: denialReason(a) };
  }
}

/** Allows everything (authorization switched off). */
export const allowAll: Authorizer = { authorize: () => ({ allowed: true, reason: '' }) };
