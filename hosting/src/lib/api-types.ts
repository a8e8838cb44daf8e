/** The API's response types the pages use, named once. */
import type { components } from '$api-types';

type Schemas = components['schemas'];
export type Report = Schemas['Report'];
export type ReportList = Schemas['ReportList'];
export type ControlList = Schemas['ControlList'];
export type ControlDetail = Schemas['ControlDetail'];
