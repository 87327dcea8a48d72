/* Prints the struct layouts of acl_double.h as the C compiler lays them out, as JSON. TEST ONLY. */
#include <stddef.h>
#include <stdio.h>

#include "acl_double.h"

#define BEGIN(T) printf("%s\"%s\":{\"size\":%zu,\"align\":%zu,\"fields\":{", first ? "" : ",", #T, sizeof(T), _Alignof(T)), first = 0, f = 1
#define FIELD(T, m) printf("%s\"%s\":%zu", f ? "" : ",", #m, offsetof(T, m)), f = 0
#define END() printf("}}")

int main(void) {
  int first = 1, f = 1;
  printf("{");
  BEGIN(aclrtMemLocation);
  FIELD(aclrtMemLocation, id);
  FIELD(aclrtMemLocation, type);
  END();
  BEGIN(aclrtPhysicalMemProp);
  FIELD(aclrtPhysicalMemProp, handleType);
  FIELD(aclrtPhysicalMemProp, allocationType);
  FIELD(aclrtPhysicalMemProp, memAttr);
  FIELD(aclrtPhysicalMemProp, location);
  FIELD(aclrtPhysicalMemProp, reserve);
  END();
  BEGIN(aclrtMemAccessDesc);
  FIELD(aclrtMemAccessDesc, flags);
  FIELD(aclrtMemAccessDesc, location);
  FIELD(aclrtMemAccessDesc, rsv);
  END();
  BEGIN(aclrtPtrAttributes);
  FIELD(aclrtPtrAttributes, location);
  FIELD(aclrtPtrAttributes, pageSize);
  FIELD(aclrtPtrAttributes, rsv);
  END();
  BEGIN(aclrtMallocAttrValue);
  FIELD(aclrtMallocAttrValue, moduleId);
  FIELD(aclrtMallocAttrValue, deviceId);
  FIELD(aclrtMallocAttrValue, vaFlag);
  FIELD(aclrtMallocAttrValue, rsv);
  END();
  BEGIN(aclrtMallocAttribute);
  FIELD(aclrtMallocAttribute, attr);
  FIELD(aclrtMallocAttribute, value);
  END();
  BEGIN(aclrtMallocConfig);
  FIELD(aclrtMallocConfig, attrs);
  FIELD(aclrtMallocConfig, numAttrs);
  END();
  BEGIN(aclrtMemcpyBatchAttr);
  FIELD(aclrtMemcpyBatchAttr, dstLoc);
  FIELD(aclrtMemcpyBatchAttr, srcLoc);
  FIELD(aclrtMemcpyBatchAttr, rsv);
  END();
  BEGIN(aclrtMemUsageInfo);
  FIELD(aclrtMemUsageInfo, name);
  FIELD(aclrtMemUsageInfo, curMemSize);
  FIELD(aclrtMemUsageInfo, memPeakSize);
  FIELD(aclrtMemUsageInfo, reserved);
  END();
  printf("}\n");
  return 0;
}
