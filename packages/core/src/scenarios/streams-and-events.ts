import { ASCEND_910B2 } from '../profiles/builtin.ts';
import type { Scenario } from './scenario.ts';

const CODE = `// Two streams in a context of their own: the copy stream loads the input while the compute
// stream waits for it on an event, the way a training step overlaps data and work.
#define ACL_CHECK(expr) do { aclError _ret = (expr); if (_ret != ACL_SUCCESS) { printf("%s failed: %d\\n", #expr, _ret); return 1; } } while (0)

int main()
{
    ACL_CHECK(aclInit(nullptr));
    ACL_CHECK(aclrtSetDevice(0));                       // the device's default context (CX-1)
    aclrtContext context = nullptr;
    ACL_CHECK(aclrtCreateContext(&context, 0));         // a context of our own, now current (CX-1)

    aclrtStream copyStream = nullptr;
    aclrtStream computeStream = nullptr;
    ACL_CHECK(aclrtCreateStream(&copyStream));          // streams belong to the current context (CX-3)
    ACL_CHECK(aclrtCreateStream(&computeStream));

    aclrtEvent loaded = nullptr;
    aclrtEvent start = nullptr;
    ACL_CHECK(aclrtCreateEvent(&start));                // timestamped and waitable (EV-1)
    ACL_CHECK(aclrtCreateEvent(&loaded));

    const size_t size = 256 * 1024 * 1024;
    void* input = nullptr;
    void* deviceInput = nullptr;
    void* workspace = nullptr;
    ACL_CHECK(aclrtMallocHost(&input, size));           // pinned, so the copy is truly async (HM-2)
    ACL_CHECK(aclrtMalloc(&deviceInput, size, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMalloc(&workspace, size, ACL_MEM_MALLOC_HUGE_FIRST));

    ACL_CHECK(aclrtRecordEvent(start, copyStream));
    ACL_CHECK(aclrtMemcpyAsync(deviceInput, size, input, size, ACL_MEMCPY_HOST_TO_DEVICE, copyStream));
    ACL_CHECK(aclrtRecordEvent(loaded, copyStream));    // captures the copy (EV-2)
    ACL_CHECK(aclrtStreamWaitEvent(computeStream, loaded)); // later work waits for it; the host does not (EV-3)
    ACL_CHECK(aclrtMemcpyAsync(workspace, size, deviceInput, size, ACL_MEMCPY_DEVICE_TO_DEVICE, computeStream));

    ACL_CHECK(aclrtSynchronizeStream(computeStream));   // the host waits here (CP-4)
    float ms = 0.0f;
    ACL_CHECK(aclrtEventElapsedTime(&ms, start, loaded)); // modeled time of the load (EV-6)
    printf("loading took %.3f ms\\n", ms);

    ACL_CHECK(aclrtFree(workspace));
    ACL_CHECK(aclrtFree(deviceInput));
    ACL_CHECK(aclrtFreeHost(input));
    ACL_CHECK(aclrtDestroyEvent(loaded));
    ACL_CHECK(aclrtDestroyEvent(start));
    ACL_CHECK(aclrtDestroyStream(computeStream));
    ACL_CHECK(aclrtDestroyStream(copyStream));
    ACL_CHECK(aclrtDestroyContext(context));            // (CX-2)
    ACL_CHECK(aclrtResetDevice(0));
    ACL_CHECK(aclFinalize());
    return 0;
}`;

export const STREAMS_AND_EVENTS: Scenario = {
  id: 'streams-and-events',
  title: { en: 'Two streams and an event', zh: '两个Stream与一个Event' },
  description: {
    en: 'A context with a copy stream and a compute stream: the input is copied on one, an event records the copy, and the other stream waits on the event before it uses the data. The host only waits at the final synchronize; the elapsed time between the two events is the modeled length of the copy.',
    zh: '在自建Context中使用拷贝Stream与计算Stream：输入数据在一个Stream上拷贝，Event记录该拷贝，另一个Stream等待该Event后再使用数据。Host只在最后的同步处等待；两个Event之间的耗时即建模得到的拷贝时长。',
  },
  code: CODE,
  inputs: [],
  setup: '',
  host: { profile: ASCEND_910B2.name, devices: 1, fresh: false },
  origin: 'pagelens',
  rules: ['CX-1', 'CX-2', 'CX-3', 'EV-1', 'EV-2', 'EV-3', 'EV-6', 'CP-4', 'HM-2'],
};
