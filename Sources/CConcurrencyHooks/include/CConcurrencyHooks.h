#ifndef CCONCURRENCYHOOKS_H
#define CCONCURRENCYHOOKS_H

/// Where Swift concurrency's runtime keeps its global-executor hooks (swift/Runtime/Concurrency.h:
/// swift_task_enqueueGlobal_hook and the two for jobs due later), as the linker resolves them: in
/// a program whose Swift runtime is linked in statically (the package's), no dynamic symbol table
/// names them, so dlsym cannot find them. Each is a function pointer of Swift's calling
/// convention; null until someone sets it (EventLoopExecutor, in Base).
void *_Nullable *_Nonnull cconcurrency_enqueue_global_hook(void);
void *_Nullable *_Nonnull cconcurrency_enqueue_global_with_delay_hook(void);
void *_Nullable *_Nonnull cconcurrency_enqueue_global_with_deadline_hook(void);

#endif
