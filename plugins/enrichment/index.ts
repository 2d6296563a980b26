/**
 * The enrichment plugin package: five stages that share one provider contract,
 * HTTP provider, sandbox and pull stage (common/). It is one plugin package:
 * its stages import `common/` as their own code, and nothing outside the
 * package imports its files (the built-in catalog imports this entry point).
 */
export { NmvtisStage } from './nmvtis/stage.js';
export { PublicDmvStage } from './public-dmv/stage.js';
export { PrivatePortalStage } from './private-portal/stage.js';
export { InsuranceStage } from './insurance/stage.js';
export { VinDecodeStage } from './vin-decode/stage.js';
