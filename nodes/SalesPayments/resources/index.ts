import type { ResourceDef } from '../shared/types';
import { business } from './business';

/** Every resource of the action node, in the order the editor lists them. Add a resource here. */
export const resources: ResourceDef[] = [business];
