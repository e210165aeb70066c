// One-factor variants of ns-3 3.44's congestion controls, for the agreement matrix's
// experiments (docs/validation.md): each changes one thing ns-3 does differently from
// aqmlab's default and nothing else, so that a row run with it shows what that one thing
// does in ns-3 itself. Linked into build/aqmlab_ns3 (setup.sh --cxx); a spec selects one with
// `socket_type NODE ns3::Aqmlab...` (`ns3_mapping.with_variant`). No spec of the plain
// matrix names one, so their results (and cache keys, agreement.spec_key) do not depend on
// this file.
//
// NoRecoveryExitCredit<Base>: the ACK that ends fast recovery does not grow the window.
// ns-3's TcpSocketBase::ProcessAck, leaving CA_RECOVERY, sets cwnd = ssthresh and then calls
// IncreaseWindow(tcb, segsAcked) with segsAcked = (ackNumber - oldHeadSequence) / segmentSize,
// every segment that ACK covers (with SACK: the whole window SACKed during the recovery).
// RFC 6582 Section 3.2 step 3 and RFC 6675 Section 5 (A) end recovery with cwnd = ssthresh and
// nothing more, as aqmlab does by default (`recovery_exit_credit = "none"`). Just before that
// IncreaseWindow, and only there, ProcessAck calls CwndEvent(CA_EVENT_COMPLETE_CWR) while the
// state is still CA_RECOVERY (ReceivedAck's end of an ECN CWR sets CA_OPEN first); the variant
// notes it and skips the IncreaseWindow that follows.

#include "ns3/core-module.h"
#include "ns3/internet-module.h"

namespace ns3
{

template <class Base>
class NoRecoveryExitCredit : public Base
{
  public:
    NoRecoveryExitCredit() = default;

    NoRecoveryExitCredit(const NoRecoveryExitCredit& other)
        : Base(other),
          m_exiting(other.m_exiting)
    {
    }

    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override
    {
        if (event == TcpSocketState::CA_EVENT_COMPLETE_CWR &&
            tcb->m_congState == TcpSocketState::CA_RECOVERY)
        {
            m_exiting = true;
        }
        Base::CwndEvent(tcb, event);
    }

    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override
    {
        if (m_exiting)
        {
            m_exiting = false;
            return;
        }
        Base::IncreaseWindow(tcb, segmentsAcked);
    }

  private:
    bool m_exiting{false};
};

#define AQMLAB_NO_EXIT_CREDIT(NAME, BASE)                                                          \
    class NAME : public NoRecoveryExitCredit<BASE>                                                 \
    {                                                                                              \
      public:                                                                                      \
        static TypeId GetTypeId()                                                                  \
        {                                                                                          \
            static TypeId tid = TypeId("ns3::" #NAME)                                              \
                                    .SetParent<BASE>()                                             \
                                    .SetGroupName("Internet")                                      \
                                    .AddConstructor<NAME>();                                       \
            return tid;                                                                            \
        }                                                                                          \
        std::string GetName() const override                                                       \
        {                                                                                          \
            return #NAME;                                                                          \
        }                                                                                          \
        Ptr<TcpCongestionOps> Fork() override                                                      \
        {                                                                                          \
            return CopyObject<NAME>(this);                                                         \
        }                                                                                          \
    };                                                                                             \
    NS_OBJECT_ENSURE_REGISTERED(NAME)

AQMLAB_NO_EXIT_CREDIT(AqmlabTcpScalableNoExitCredit, TcpScalable);
AQMLAB_NO_EXIT_CREDIT(AqmlabTcpCubicNoExitCredit, TcpCubic);
AQMLAB_NO_EXIT_CREDIT(AqmlabTcpNewRenoNoExitCredit, TcpNewReno);

} // namespace ns3
