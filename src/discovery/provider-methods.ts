import type { DiscoveryService, MetadataScanner } from '@nestjs/core';

/** A provider or controller as Nest's DiscoveryService hands it out. */
export type DiscoveredWrapper = ReturnType<DiscoveryService['getProviders']>[number];

/** One method of a discovered provider or controller instance. */
export interface ProviderMethod {
  readonly wrapper: DiscoveredWrapper;
  readonly instance: object;
  readonly methodName: string;
  readonly method: Function;
}

/**
 * Every method of the instances behind `wrappers` (providers and controllers from Nest's
 * DiscoveryService), each instance once: aliases and wrappers without an instance are skipped. Where
 * the decorators of this package (tools, app resources, skills) are looked for at bootstrap.
 */
export function* providerMethods(
  wrappers: Iterable<DiscoveredWrapper>,
  scanner: MetadataScanner,
): Generator<ProviderMethod> {
  const seen = new Set<object>();
  for (const wrapper of wrappers) {
    const instance = wrapper.instance as object | undefined;
    if (!instance || typeof instance !== 'object' || wrapper.isAlias || seen.has(instance)) continue;
    seen.add(instance);
    const prototype = Object.getPrototypeOf(instance) as object | null;
    if (!prototype) continue;
    for (const methodName of scanner.getAllMethodNames(prototype)) {
      const method = (prototype as Record<string, unknown>)[methodName];
      if (typeof method === 'function') yield { wrapper, instance, methodName, method };
    }
  }
}

/** Whether the wrapper's instance is a singleton (not request-scoped, durable or transient, nor depends on one). */
export function isSingleton(wrapper: DiscoveredWrapper): boolean {
  return wrapper.isDependencyTreeStatic() && !wrapper.isTransient;
}
