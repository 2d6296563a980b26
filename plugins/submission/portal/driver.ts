/**
 * The portal-driver contract: what filing with one state's online portal
 * takes, step by step, in a browser page the worker gives it (one browser
 * context per submission). A driver never decides statuses: it reports what
 * the portal shows, and the worker (./worker.ts) moves the submission.
 */
import type { Page } from 'playwright-core';

/** What a driver files: the entry's facts and the documents to upload. */
export interface FilingData {
  submissionId: string;
  /** Our reference, typed into the portal so a lost answer can be found again (never files twice). */
  reference: string;
  state: string;
  vin: string;
  year: string;
  make: string;
  ownerName: string;
  lienholderName: string;
  documents: PortalDocument[];
}

/**
 * A document to upload, as a file on disk named `filename` (alone in its folder): the worker writes the step's
 * documents to a folder of its own before the driver runs and removes it after the step, so a browser uploads them
 * from disk and their bytes never sit in the daemon's memory.
 */
export interface PortalDocument {
  filename: string;
  contentType: string;
  /** The file (its base name is `filename`). */
  path: string;
}

/** What the portal says about a filed application, in submission statuses. */
export interface PortalReport {
  status: 'SUBMITTED' | 'UNDER_REVIEW' | 'ACTION_REQUIRED' | 'ACCEPTED' | 'REJECTED';
  feedbackMessage?: string;
}

/** A failure retrying cannot help (a CAPTCHA, refused credentials, data the portal will not take): ERROR at once. */
export class PortalBlocked extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PortalBlocked';
  }
}

export interface PortalConnection {
  url: string;
  username: string;
  password: string;
}

export interface PortalDriver {
  readonly name: string;
  /** Checks and shapes the data before a browser is used (PortalBlocked when the portal's required data is missing). */
  prepare(data: FilingData): FilingData;
  /** Signs in and fills every page of the application, documents included, up to the review page. */
  fill(page: Page, data: FilingData): Promise<void>;
  /** Dry run: reads the review page and checks it shows what was filled (PortalBlocked when not). Files nothing. */
  review(page: Page, data: FilingData): Promise<Record<string, string>>;
  /** Files the reviewed application: the portal's application number and a PNG screenshot of its confirmation. */
  submit(page: Page, data: FilingData): Promise<{ applicationNumber: string; screenshot: Buffer }>;
  /** The application filed under our reference, if the portal has one (after an answer was lost). */
  find(page: Page, data: FilingData): Promise<{ applicationNumber: string; screenshot: Buffer } | null>;
  /** The application's status. */
  poll(page: Page, applicationNumber: string): Promise<PortalReport>;
  /** Sends a follow-up round's documents. */
  uploadFollowUp(page: Page, applicationNumber: string, documents: PortalDocument[]): Promise<void>;
}
