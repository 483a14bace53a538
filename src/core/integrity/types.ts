/** docs/format.md section 9: what `rlrb check --json` prints, and what the tree and downloads read. */

/** resume/iter_N (a torch_dist checkpoint). */
export interface ResumeCheck {
  /** true: whole; false: something missing or short; null: cannot tell (see reason) */
  complete: boolean | null;
  /** why it cannot tell, when complete is null */
  reason?: string;
  /**
   * when it cannot tell because `.metadata` names a callable or class no checkpoint writer uses
   * (`module.name`): loading it may run code, so no latest file names it
   */
  unsafe?: string;
  files?: number;
  needBytes?: Record<string, number>;
  tensors?: number;
  missing?: string[];
  short?: string[];
}

/** hf/iter_N (safetensors). */
export interface HfCheck {
  complete: boolean | null;
  reason?: string;
  shards: number;
  missing: string[];
  parameters: number | null;
  /** parameters by safetensors dtype (e.g. BF16), when complete */
  dtypes?: Record<string, number>;
}

export interface LatestCheck {
  names: number | null;
  namesComplete: boolean;
  lastComplete: number | null;
}

export interface CheckReport {
  resume: Record<string, ResumeCheck>;
  hf: Record<string, HfCheck>;
  latest: LatestCheck;
}

/** A file of an iteration folder, as the listing (Hub or disk) gives it. */
export interface FileEntry {
  name: string;
  size: number;
}

/** The report, and each iteration's files (for tooltips; not part of the JSON). */
export interface IntegrityCheck {
  report: CheckReport;
  files: { resume: Record<string, FileEntry[]>; hf: Record<string, FileEntry[]> };
  warnings: string[];
}
