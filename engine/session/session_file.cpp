// Session files on disk: bounded reading, and writing through a temporary file and a rename.
#include "session/session_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace dlab {

namespace {

namespace fs = std::filesystem;

std::string why() { return std::strerror(errno); }

// The temporary file beside the target ("dir/.name.<pid>.<n>.tmp"), so the rename stays on one
// file system and is atomic. O_EXCL: never one that exists; mode 0666 minus the umask, as for any
// new file.
int openTemporary(const std::string& path, std::string& tmp) {
    static std::atomic<unsigned> counter{0};
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    for (int attempt = 0; attempt < 100; ++attempt) {
        tmp = (dir / ("." + target.filename().string() + "." + std::to_string(::getpid()) + "." + std::to_string(counter++) + ".tmp")).string();
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

}  // namespace

SavedSession readSessionFile(const std::string& path) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (!fs::exists(st)) throw Error(path + ": the file does not exist (it may have been moved or deleted)");
    if (fs::is_directory(st)) throw Error(path + ": is a folder, not a session file");
    const auto size = fs::file_size(path, ec);
    if (ec) throw Error(path + ": cannot be read (" + ec.message() + ")");
    if (static_cast<int64_t>(size) > kMaxSessionFileBytes)
        throw Error(path + ": the file is " + std::to_string(size >> 20) + " MB, more than a session file may hold (" +
                    std::to_string(kMaxSessionFileBytes >> 20) + " MB); it is not a session file, or a damaged one");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot be opened for reading (" + why() + ")");
    std::string text(static_cast<size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    text.resize(static_cast<size_t>(in.gcount()));   // a file that shrank meanwhile reads as truncated
    return parseSessionJson(text, path);
}

void writeSessionFile(const std::string& path, const SavedSession& session) {
    const std::string text = sessionJson(session);
    try {
        parseSessionJson(text, path);
    } catch (const Error& e) {
        throw Error(std::string("not saved, the session does not check out (a bug worth reporting): ") + e.what());
    }

    std::string tmp;
    const int fd = openTemporary(path, tmp);
    if (fd < 0) throw Error(path + ": cannot be saved: the folder does not take a new file (" + why() + ")");
    const auto failWith = [&](const std::string& what) {
        const std::string reason = why();
        ::close(fd);
        ::unlink(tmp.c_str());
        throw Error(path + ": cannot be saved: " + what + " (" + reason + "); the previous file, if any, is unchanged");
    };
    // Keep the permissions of the file being replaced.
    struct stat old {};
    if (::stat(path.c_str(), &old) == 0 && S_ISREG(old.st_mode)) ::fchmod(fd, old.st_mode & 07777);
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) failWith("writing failed");
        done += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0) failWith("flushing to disk failed");
    if (::close(fd) != 0) {
        const std::string reason = why();
        ::unlink(tmp.c_str());
        throw Error(path + ": cannot be saved: closing the file failed (" + reason + "); the previous file, if any, is unchanged");
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string reason = why();
        ::unlink(tmp.c_str());
        throw Error(path + ": cannot be saved: it cannot replace what is there (" + reason + "); the previous file, if any, is unchanged");
    }
    // The rename itself reaches the disk with the folder's entry (best effort: some file systems refuse).
    const fs::path dir = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
    if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

}  // namespace dlab
