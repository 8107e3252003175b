import { Construct } from 'constructs';
import { AzureCloudControllerManager } from './azure-cloud-controller-manager';
import { AzureStackHubCloudControllerManager } from './azure-stack-hub-cloud-controller-manager';
import { AZURE_PLATFORM_FACTS, isAzureStackHub } from './facts';
import { operandProps, PlatformDefinition, PreparedCluster, infrastructureNameOf } from '../platform';

export * from './azure-cloud-controller-manager';
export * from './azure-cloud-node-manager';
export * from './azure-cloud-provider-rbac';
export * from './azure-stack-hub-cloud-controller-manager';
export * from './credentials-injector';
export * from '../../cluster-spec/sections/azure';
export * from './facts';

/** The platform as the renderer takes it: {@link AZURE_PLATFORM_FACTS} and its operands ({@link AzureStackHubCloudControllerManager}, {@link AzureCloudControllerManager}). */
export const AZURE_PLATFORM: PlatformDefinition = {
  ...AZURE_PLATFORM_FACTS,
  renderOperands(scope: Construct, cluster: PreparedCluster): void {
    const s = cluster.spec.spec;
    const props = {
      ...operandProps(cluster),
      image: s.images.cloudControllerManagerAzure!,
      nodeManagerImage: s.images.cloudNodeManagerAzure!,
      operatorImage: s.images.cloudControllerManagerOperator!,
      infrastructureName: infrastructureNameOf(cluster),
    };
    if (isAzureStackHub(cluster.spec)) {
      new AzureStackHubCloudControllerManager(scope, 'AzureStackHubCloudControllerManager', props);
    } else {
      new AzureCloudControllerManager(scope, 'AzureCloudControllerManager', props);
    }
  },
};
