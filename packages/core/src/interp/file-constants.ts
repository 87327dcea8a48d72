/**
 * The open flags of <fcntl.h> and the permission bits of <sys/stat.h>, for `open(path, O_WRONLY |
 * O_CREAT | O_TRUNC, S_IRUSR | S_IWUSR)`. File I/O is not modeled (builtins.ts answers as if the
 * file opened), so these only have to be the names with their values.
 *
 * The buffering modes and BUFSIZ of <stdio.h> are there for `setvbuf(stdout, nullptr, _IOLBF, BUFSIZ)`
 * (a note: output is not modeled).
 *
 * Sources: the permission bits are POSIX's own octal values (<sys/stat.h>, IEEE Std 1003.1); the
 * open flags are Linux's (include/uapi/asm-generic/fcntl.h, as on the aarch64 and x86-64 hosts of
 * Ascend cards); the buffering modes and BUFSIZ are glibc's (libio/stdio.h).
 */
export const FILE_CONSTANTS: ReadonlyMap<string, bigint> = new Map([
  ['O_RDONLY', 0o0n],
  ['O_WRONLY', 0o1n],
  ['O_RDWR', 0o2n],
  ['O_CREAT', 0o100n],
  ['O_EXCL', 0o200n],
  ['O_TRUNC', 0o1000n],
  ['O_APPEND', 0o2000n],
  ['S_IRWXU', 0o700n],
  ['S_IRUSR', 0o400n],
  ['S_IWUSR', 0o200n],
  ['S_IXUSR', 0o100n],
  ['S_IRWXG', 0o70n],
  ['S_IRGRP', 0o40n],
  ['S_IWGRP', 0o20n],
  ['S_IXGRP', 0o10n],
  ['S_IRWXO', 0o7n],
  ['S_IROTH', 0o4n],
  ['S_IWOTH', 0o2n],
  ['S_IXOTH', 0o1n],
  ['_IOFBF', 0n],
  ['_IOLBF', 1n],
  ['_IONBF', 2n],
  ['BUFSIZ', 8192n],
]);
