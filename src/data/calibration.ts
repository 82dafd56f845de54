import { readFileSync } from "node:fs";
import { datasetNamed } from "../datasets/index.js";
import { type Calibration, CalibrationSchema } from "../scoring/index.js";
import { describeIssue, firstIssue } from "../util/index.js";
import { CALIBRATION_FILE } from "./paths.js";

const calibrations = new Map<string, Calibration>();

/**
 * The calibration a run on `dataset` is scored against: the dataset's own (its spec's
 * `calibrationPath`, e.g. the twins', measured from the reference analyst on twins) when it has
 * one, else the default. Each file is read once per process.
 */
export function calibrationFor(dataset: string): Calibration {
  const path = datasetNamed(dataset)?.calibrationPath ?? CALIBRATION_FILE;
  let calibration = calibrations.get(path);
  if (!calibration) {
    calibration = loadCalibration(path);
    calibrations.set(path, calibration);
  }
  return calibration;
}

/** The calibration the efficiency dimensions are measured against (data/calibration.json, written by `calibrate`). */
export function loadCalibration(path = CALIBRATION_FILE): Calibration {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read the calibration ${path}: ${(error as Error).message} (run \`entropic-crmarena calibrate\`)`);
  }
  const parsed = CalibrationSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${path} is not a calibration: ${describeIssue(firstIssue(parsed.error))}`);
  return parsed.data;
}
