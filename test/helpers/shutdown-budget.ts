/**
 * Seconds a worker may take, after its grace (WRENCH_SHUTDOWN_GRACE_SECONDS) is over, to hand back the jobs it then
 * stops: commit and push their work, open or update a draft pull request, tell their threads, close its connections.
 * deploy/kubernetes/worker.yaml's terminationGracePeriodSeconds is the grace plus this
 * (test/unit/deploy/kubernetes-manifests.test.ts), and test/e2e/shutdown.test.ts measures a real hand-back within it.
 */
export const HAND_BACK_SECONDS = 60;
