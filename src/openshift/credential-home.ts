// Where an OpenShift platform's CCM reads its credentials, for the fix of every refusal of a credential.
import { OPERAND_NAMESPACE } from './constants';
import { PlatformFacts } from './platform';
import { platformName } from '../cluster-spec/platform-names';

/**
 * Where the platform's CCM reads its credentials on OpenShift: the Secret the
 * cloud-credential-operator writes from the platform's CredentialsRequest, or
 * the platform's own statement when it has none (the instance identity).
 */
export function openshiftCredentialHome(facts: Pick<PlatformFacts, 'type' | 'credentialsRequest' | 'credentialHome'>): string {
  if (facts.credentialHome) {
    return facts.credentialHome;
  }
  const name = platformName(facts.type);
  const request = facts.credentialsRequest;
  return request
    ? `the ${name} cloud controller manager reads its credentials from Secret ${OPERAND_NAMESPACE}/${request.secretName}, ` +
        `which the cloud-credential-operator creates from CredentialsRequest ${request.name}`
    : `the ${name} cloud controller manager authenticates with the instance identity`;
}
