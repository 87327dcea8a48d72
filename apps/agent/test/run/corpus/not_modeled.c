/* Calls ACL functions PageLens does not model, as the CANN samples do: each answers 207000 and
 * the run lists it once. The program carries on when the answer is not success. */
#include "common.h"

int main(void) {
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(0));
  for (int i = 0; i < 3; i++) EXPECT(aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  int32_t major = 0, minor = 0, patch = 0;
  EXPECT(aclrtGetVersion(&major, &minor, &patch) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  printf("not_modeled: PASS\n");
  return 0;
}
