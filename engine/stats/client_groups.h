#pragma once

#include <QStringList>
#include <QVector>

namespace ratelab {

// Which traffic group (traffic "groups") each client of a run belongs to: the groups' names in
// the scenario's order and, per client index, its group's index. Empty: the traffic has no
// groups, and no figure is reported per group.
struct ClientGroups {
    QStringList names;
    QVector<int> ofClient;

    bool isEmpty() const { return names.isEmpty(); }
    // How many clients each group has.
    QVector<int> sizes() const {
        QVector<int> out(names.size(), 0);
        for (const int g : ofClient) {
            ++out[g];
        }
        return out;
    }
};

}  // namespace ratelab
