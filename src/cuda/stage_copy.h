/*
 * Host threads for the staging pipeline's copies (stage_copy.cu): the
 * gather of a chunk's problems from the user's memory into a pinned buffer
 * and the scatter back are cut into units that a small team of threads
 * claims one at a time (staging.cu decides the units and how many
 * threads a pipeline gets; this is only the mechanism).
 */
#pragma once

/* Runs fn(arg) on the calling thread and, at the same time, on up to
   `helpers` threads of a process-wide pool (grown lazily, never past
   `pool_max` threads; nothing is created before the first call with
   helpers > 0).  Returns when every run has returned; what the runs wrote
   is then visible to the caller.  fn must do its share of the work by
   claiming units from `arg` until none is left, so that the caller alone
   completes the job when no pool thread joins (busy with other teams, or
   none could be started).  Allocates nothing; never fails. */
void bb_stage_team(void (*fn)(void *), void *arg, int helpers, int pool_max);

/* The same with the pool of pipeline threads (staging.cu: a batch over
   several devices runs one pipeline per device, the caller's and up to
   `helpers` more at once; pool_max = helpers). */
void bb_stage_pipelines(void (*fn)(void *), void *arg, int helpers);

/* Host cores usable by this process (its CPU affinity mask), at least 1. */
int bb_stage_host_cores(void);
