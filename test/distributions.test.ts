import { DISTRIBUTIONS } from '../src/cluster-spec/schema';
import { DISTRIBUTION_FACTS, distributionFactsNamed, otherRenderers } from '../src/distribution-facts';
import { DISTRIBUTIONS_RENDERING } from '../src/distributions';
import { kubernetesPlatforms } from '../src/kubernetes/providers';
import { supportedPlatforms } from '../src/openshift/platform-facts';
import { migrationInput } from './helpers';

describe('the distribution registries', () => {
  test('GIVEN the names of spec.distribution THEN each has its facts and its renderer, under its own name', () => {
    expect(Object.keys(DISTRIBUTION_FACTS)).toEqual([...DISTRIBUTIONS]);
    expect(Object.keys(DISTRIBUTIONS_RENDERING)).toEqual([...DISTRIBUTIONS]);
    expect(DISTRIBUTIONS.map((d) => DISTRIBUTION_FACTS[d].name)).toEqual([...DISTRIBUTIONS]);
  });

  test('GIVEN each distribution THEN it renders the platforms of its own registry (OpenShift platform facts, upstream providers)', () => {
    expect(DISTRIBUTION_FACTS.openshift.platforms()).toEqual(supportedPlatforms());
    expect(DISTRIBUTION_FACTS.kubernetes.platforms()).toEqual(kubernetesPlatforms());
    expect(DISTRIBUTION_FACTS.openshift.renders('PowerVS')).toBe(true);
    expect(DISTRIBUTION_FACTS.kubernetes.renders('PowerVS')).toBe(false);
  });

  test('GIVEN a platform WHEN another distribution is asked for THEN only those that render it are named', () => {
    expect(otherRenderers('openshift', 'DigitalOcean')).toEqual(['kubernetes']);
    expect(otherRenderers('kubernetes', 'PowerVS')).toEqual(['openshift']);
    expect(otherRenderers('kubernetes', 'IBMCloud')).toEqual(['openshift']);
    expect(otherRenderers('openshift', 'IBMCloud')).toEqual([]);
  });

  test('GIVEN a name that is no distribution WHEN its facts are asked for THEN one error names it and the known ones', () => {
    expect(() => distributionFactsNamed('rke2')).toThrow(new Error('distribution "rke2" is not one of openshift, kubernetes'));
    expect(distributionFactsNamed('kubernetes')).toBe(DISTRIBUTION_FACTS.kubernetes);
  });

  test('GIVEN AWS (external by default from 1.27) WHEN the switch to external is asked THEN OpenShift cannot turn it off before 1.27, Kubernetes always can', () => {
    const at = (kubernetesMinor: number) => migrationInput('AWS', { phase: 'external', kubernetesMinor });
    expect([26, 27].map((m) => DISTRIBUTION_FACTS.openshift.externalIsOneWay(at(m)))).toEqual([true, false]);
    expect([26, 27].map((m) => DISTRIBUTION_FACTS.kubernetes.externalIsOneWay(at(m)))).toEqual([false, false]);
    expect(DISTRIBUTION_FACTS.openshift.externalIsOneWay({ ...at(26), support: undefined })).toBe(false);
  });
});
