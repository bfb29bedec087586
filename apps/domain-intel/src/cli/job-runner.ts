/**
 * The job runner (and everything it drives: lifecycle, enrichment, deliveries), loaded when a
 * command runs a job rather than at every CLI start: a zone import has no use for it.
 */
export const jobRunner = () => import('../jobs/pipeline.ts');
