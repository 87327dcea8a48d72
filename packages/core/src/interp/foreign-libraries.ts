/*
 * Libraries whose types framework back-ends of the corpus use (corpus/public/README.md, "framework
 * code"): a type of one of them is defined by that library's headers, which the playground does
 * not read, so the code runs under `pagelens run` instead. One row per library: how its type
 * names are spelled, and what the library is.
 */
interface ForeignLibrary {
  readonly name: string;
  readonly types: RegExp;
}

const FOREIGN_LIBRARIES: readonly ForeignLibrary[] = [
  { name: 'ggml', types: /^ggml_\w+$/ },
  { name: 'PyTorch (c10, ATen) or torch_npu', types: /^(?:c10|c10_npu|c10d_npu|at|torch|at_npu)::/ },
  { name: "Python's C API", types: /^Py[A-Z]\w*$/ },
  { name: "PaddlePaddle's custom-device C API", types: /^C_[A-Z]\w*$/ },
  { name: 'flat_hash_map, which torch_npu vendors', types: /^ska::/ },
  { name: 'FlagCX', types: /^flagcx\w*$/ },
  { name: 'OpenCV', types: /^(?:cv::)?Mat$/ },
];

/** The library a type name belongs to, when it is one of the known ones. */
export function foreignLibraryOf(type: string): string | undefined {
  const bare = type.replace(/\s+/g, '').replace(/^::/, '');
  return FOREIGN_LIBRARIES.find((library) => library.types.test(bare))?.name;
}
