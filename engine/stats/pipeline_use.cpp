#include "stats/pipeline_use.h"

namespace ratelab {

QString pipelineEndName(PipelineEnd end) {
    switch (end) {
        case PipelineEnd::Full:
            return QStringLiteral("full pipeline");
        case PipelineEnd::Due:
            return QStringLiteral("requests due");
        case PipelineEnd::Sample:
            return QStringLiteral("state samples");
        case PipelineEnd::WaitMode:
            return QStringLiteral("wait-mode retries");
        case PipelineEnd::RedisTime:
            return QStringLiteral("time: redis");
        case PipelineEnd::Releases:
            return QStringLiteral("concurrency releases");
        case PipelineEnd::CachedRefusals:
            return QStringLiteral("cached refusals");
        case PipelineEnd::Explained:
            return QStringLiteral("explained requests");
        case PipelineEnd::Schedule:
            return QStringLiteral("schedule end");
    }
    return {};
}

PipelineEnd PipelineUse::limitedBy() const {
    PipelineEnd most = PipelineEnd::Full;
    qint64 count = 0;
    for (int i = 0; i < kPipelineEnds; ++i) {
        const auto end = PipelineEnd(i);
        if (end != PipelineEnd::Full && end != PipelineEnd::Schedule && endedBy[i] > count) {
            most = end;
            count = endedBy[i];
        }
    }
    return most;
}

}  // namespace ratelab
