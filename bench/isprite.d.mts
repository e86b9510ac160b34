import type { IspriteDocument } from '../src/formats/isprite/model.js';

/** A synthetic sprite of about `targetBytes` (40 elements per frame; `fractional`: every position has a fraction). */
export function makeDoc(targetBytes: number, fractional?: boolean): IspriteDocument;
export function run(): Promise<void>;
