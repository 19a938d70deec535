#include "CConcurrencyHooks.h"

extern void *swift_task_enqueueGlobal_hook;
extern void *swift_task_enqueueGlobalWithDelay_hook;
extern void *swift_task_enqueueGlobalWithDeadline_hook;

void **cconcurrency_enqueue_global_hook(void) { return &swift_task_enqueueGlobal_hook; }
void **cconcurrency_enqueue_global_with_delay_hook(void) { return &swift_task_enqueueGlobalWithDelay_hook; }
void **cconcurrency_enqueue_global_with_deadline_hook(void) { return &swift_task_enqueueGlobalWithDeadline_hook; }
